module example.com/sliceshare

go 1.26
