module example.com/multierror

go 1.26
