print("assets-picker")
