module example.com/flagvalues

go 1.26
