module example.com/embedsetpos

go 1.26
