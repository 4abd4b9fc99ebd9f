module example.com/ckptstate

go 1.26
