module example.com/reflectcfg

go 1.26
