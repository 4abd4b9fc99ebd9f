module example.com/reflecttypeout

go 1.26
