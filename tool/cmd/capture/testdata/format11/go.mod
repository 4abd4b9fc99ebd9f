module example.com/format11

go 1.26
