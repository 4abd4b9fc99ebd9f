module example.com/channels

go 1.26
