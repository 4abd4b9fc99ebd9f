module example.com/rangefunc

go 1.26
