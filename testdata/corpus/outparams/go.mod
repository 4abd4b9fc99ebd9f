module example.com/outparams

go 1.26
