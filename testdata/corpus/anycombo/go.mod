module example.com/anycombo

go 1.26
