module example.com/flight

go 1.26
