module example.com/reaper

go 1.26
