module example.com/structshare

go 1.26
