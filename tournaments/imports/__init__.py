"""Results files from other scoring programs brought into the club's history."""
