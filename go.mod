module atril

go 1.26.8
