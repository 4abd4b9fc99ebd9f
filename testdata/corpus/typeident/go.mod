module example.com/typeident

go 1.26
