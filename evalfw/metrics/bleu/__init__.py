"""bleu"""
