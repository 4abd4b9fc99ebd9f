module example.com/pkgvars

go 1.26
