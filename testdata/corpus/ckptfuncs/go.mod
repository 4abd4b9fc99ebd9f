module example.com/ckptfuncs

go 1.26
