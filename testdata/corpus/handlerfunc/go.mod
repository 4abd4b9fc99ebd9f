module example.com/handlerfunc

go 1.26
