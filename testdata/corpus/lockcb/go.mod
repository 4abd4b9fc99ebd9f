module example.com/lockcb

go 1.26
