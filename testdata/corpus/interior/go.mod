module example.com/interior

go 1.26
