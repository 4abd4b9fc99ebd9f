module example.com/embedph

go 1.26
