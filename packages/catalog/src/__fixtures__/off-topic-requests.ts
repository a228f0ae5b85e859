// Requests that no tool of the real servers' lists serves, nor any of the hand-written catalog once weather_forecast is
// left out: search_tools must load nothing for them.

/** Words that are no tool's words, nor near the spelling of any. */
export const NONSENSE_REQUEST = 'xyzzy plugh frobnicate';

/**
 * Weather requests whose words reach no tool as written. Of the 18 weather requests first written, these 10 load
 * nothing in either catalog; the other 8 load the tools their remaining words name ("get the current weather": get,
 * current; "check the weather", "show me the weather for this week", "how hot is it today", "temperature in Tokyo right
 * now", "humidity and UV index for Sydney", "is it going to snow this weekend", "what's the weather like in Paris
 * today"), which words alone cannot tell from a request for those tools.
 */
export const WEATHER_REQUESTS = [
  'will it rain in Paris tomorrow',
  'weather in a city',
  'what is the weather forecast for tomorrow',
  'should I bring an umbrella',
  'how windy is it in Chicago',
  'weather in Paris',
  "what's the weather",
  'weather forecast for Berlin',
  'is it sunny in Rome',
  'will I need a coat tomorrow',
];
