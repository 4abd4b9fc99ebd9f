module example.com/embedbase

go 1.26
