module example.com/writercombo

go 1.26
