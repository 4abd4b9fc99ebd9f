module example.com/embedhidden

go 1.26
