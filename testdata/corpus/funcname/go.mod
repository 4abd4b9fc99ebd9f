module example.com/funcname

go 1.26
