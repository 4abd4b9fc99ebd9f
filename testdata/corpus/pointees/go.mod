module example.com/pointees

go 1.26
