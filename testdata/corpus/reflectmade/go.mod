module example.com/reflectmade

go 1.26
