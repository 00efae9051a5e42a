"""Who someone is and what they may do: member accounts, sign-in and its throttles, staff
sessions, two-factor sign-in and the permission of each view."""
