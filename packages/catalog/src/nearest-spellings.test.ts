import { describe, expect, it } from 'vitest';
import { NearestSpellings } from './nearest-spellings.js';

const names = (hits: { id: string }[]) => hits.map((hit) => hit.id);

describe('NearestSpellings', () => {
  it('ranks tools by how near their words are to the query, names above descriptions, ties by name', () => {
    const nearest = new NearestSpellings();
    nearest.add('slack_post_message', 'slack_post_message', 'Posts a message to a channel.');
    nearest.add('mail_send', 'mail_send', 'Sends a message by mail.');
    nearest.add('calendar_list_events', 'calendar_list_events', 'Lists calendar events.');
    // "mesage" is one edit from "message", a name word of slack_post_message and a description word of mail_send.
    expect(names(nearest.rank('mesage', 5))).toEqual(['slack_post_message', 'mail_send']);
    expect(names(nearest.rank('mesage chanel', 5))).toEqual(['slack_post_message', 'mail_send']);
    expect(names(nearest.rank('mesage chanel', 1))).toEqual(['slack_post_message']);
    expect(names(nearest.rank('mesage chanel', 5, new Set(['slack_post_message'])))).toEqual(['mail_send']);
    expect(nearest.rank('xyzzy', 5)).toEqual([]);
    expect(nearest.rank('the and of', 5)).toEqual([]);
    const twins = new NearestSpellings();
    for (const name of ['b_report', 'a_report', 'c_report']) twins.add(name, name, 'Exports the weekly report.');
    expect(names(twins.rank('weekyl', 2))).toEqual(['a_report', 'b_report']);
  });

  it('adds and removes tools before and after its index is built', () => {
    const nearest = new NearestSpellings();
    nearest.add('weather_now', 'weather_now', 'Current weather.');
    nearest.add('stock_quote', 'stock_quote', 'Latest stock price.');
    nearest.remove('stock_quote');
    expect(names(nearest.rank('wheather', 5))).toEqual(['weather_now']);
    expect(nearest.rank('stok', 5)).toEqual([]);
    // Built now: later changes go straight to the index.
    nearest.add('stock_quote', 'stock_quote', 'Latest stock price.');
    expect(names(nearest.rank('stok', 5))).toEqual(['stock_quote']);
    nearest.remove('weather_now');
    nearest.remove('weather_now');
    expect(nearest.rank('wheather', 5)).toEqual([]);
    expect(new NearestSpellings().rank('anything', 5)).toEqual([]);
  });
});
