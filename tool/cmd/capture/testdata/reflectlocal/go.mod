module example.com/reflectlocal

go 1.22
