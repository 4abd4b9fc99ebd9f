module example.com/reflectedwrite

go 1.26
