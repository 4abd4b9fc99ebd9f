module example.com/funcptr

go 1.26
