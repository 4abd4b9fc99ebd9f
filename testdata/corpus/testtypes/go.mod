module example.com/testtypes

go 1.26
