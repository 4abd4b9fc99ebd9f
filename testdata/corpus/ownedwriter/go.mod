module example.com/ownedwriter

go 1.26
