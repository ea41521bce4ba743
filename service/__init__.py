"""Herald's HTTP API (Flask + flask-smorest): HTTP only, the rules live in domain/."""
