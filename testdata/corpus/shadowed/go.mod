module example.com/shadowed

go 1.26
