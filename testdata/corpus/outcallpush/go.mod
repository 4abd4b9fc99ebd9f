module example.com/outcallpush

go 1.26
