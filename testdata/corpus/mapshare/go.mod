module example.com/mapshare

go 1.26
