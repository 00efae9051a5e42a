"""The secretary's members: the list and its CSV, forms, operations on members, licences and
payments, and the federation roster import."""
