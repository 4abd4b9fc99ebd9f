module example.com/writeout

go 1.26
