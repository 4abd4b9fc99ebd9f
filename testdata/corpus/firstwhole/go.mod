module example.com/firstwhole

go 1.26
