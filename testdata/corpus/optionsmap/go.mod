module example.com/optionsmap

go 1.26
