module example.com/mapresync

go 1.26
