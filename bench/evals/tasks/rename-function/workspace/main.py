from calc import add_numbers, double

if __name__ == "__main__":
    print(add_numbers(2, 3), double(4))
