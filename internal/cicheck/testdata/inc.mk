included:
	@echo included
