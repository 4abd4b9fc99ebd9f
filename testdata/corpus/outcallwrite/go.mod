module example.com/outcallwrite

go 1.26
