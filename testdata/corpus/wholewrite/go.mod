module example.com/wholewrite

go 1.26
