module example.com/lockpool

go 1.26
