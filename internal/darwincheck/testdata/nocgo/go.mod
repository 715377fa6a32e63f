module example.com/nocgo

go 1.26
