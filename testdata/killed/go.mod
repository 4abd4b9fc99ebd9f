module example.com/busy

go 1.26
