module example.com/varchain

go 1.26
