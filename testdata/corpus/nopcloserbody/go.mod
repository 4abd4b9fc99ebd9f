module example.com/nopcloserbody

go 1.26
