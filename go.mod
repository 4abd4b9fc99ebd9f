module github.com/rules-capture/rules_capture

go 1.26
