/**
 * The providers the vendored rule sets name (Kingfisher's rule ids, `kingfisher.onesignal.1`, and
 * the first word of gitleaks', `postman-api-token`), lower case, letters and digits, four or more,
 * less words that name no provider alone (`new` of `new-relic`, `generic`, `curl`) or are common
 * words (`line`, `box`, `segment`, `monday`, `linear`). The bare-value rule (bare-values.ts) is
 * woken by these. Written out rather than read from rules/*.json at start-up (a set of Cove's
 * patterns alone reads no rule file); test/unit/secret-bare-values.test.ts checks it against them.
 */
export const NOT_A_PROVIDER: readonly string[] =
  'age apollo aws azure bitbucket box chatbot cicero column courier credentials curl debounce ditto django enigma envoy eraser float frame front ftp gcp generic github gitlab google gradle guardian holistic humanity hunter impala jenkins jwt krb5 line linear magnetic moderation monday mongodb mysql netrc new nimble notify npm odbc pem plaintext polygon postgres privacy private privkey psexec pwhash raven reactapp readme refiner segment semaphore shortcut sidekiq streak terraform uri vault weak_password'.split(
    ' ',
  );

export const PROVIDER_NAMES: readonly string[] = (
  '1password adafruit adafruitio adobe airbrake airtable aiven alchemy algolia alibaba alibabacloud anthropic anypoint apifonica apify apilayer ' +
  'apimetrics apitemplate appfollow appointedd appoptics appsynergy artifactory asana asanaoauth assemblyai atera atlassian audd auth0 authress ' +
  'autoklose autopilot avaza aviationstack axonaut ayrshare azureopenai azuresearch azurestorage bannerbear baremetrics beamer beebole besnappy ' +
  'besttime betterstack bitbar bitcoinaverage bitly bittrex blazemeter blitapp blocknative blogger blynk bombbomb boostnote borgbase brandfetch ' +
  'browshot bscscan buddyns budibase bugherd bugsnag buildkite bulbul buttercms caflou calendarific calendly calorieninja campayn cannyio ' +
  'capsulecrm carboninterface centralstationcrm chartmogul chatfuel checio checklyhq circleci cisco clarifai clearbit clickhouse clickup ' +
  'cliengo clockify clojars closecrm cloudconvert cloudflare cloudimage cloudmersive cloudplan cloudsight cloudsmith cloverly clustdoc coda ' +
  'codacy codeclimate codecov codemagic codequiry cohere coinapi coinbase coinlayer coinlib collect2 commercejs confluent contentful ' +
  'conversiontools convertapi convertkit countrylayer coveralls craftmypdf cratesio crowdin cryptocompare currencyfreaks currencylayer ' +
  'currencyscoop currentsapi d7network dailyco dandelion dareboost databox databricks datadog datagov deepai deepgram defined delighted ' +
  'detectify detectlanguage dfuse diffbot diggernaut digitalocean discord disqus dockerhub docparser documo doppler dronahq droneci dropbox ' +
  'dtrack duffel dynalist dynatrace dyspatch eagleeyenetworks easypost ecostruxureit edenai elasticemail elevenlabs etherscan ethplorer etsy ' +
  'eventbrite everhour exchangerateapi exchangeratesapi extractorapi facebook fastforex fastly feedier fetchrss figma fileio finage ' +
  'financialmodelingprep findl finicity finnhub fixerio flatio fleetbase flexport flickr flightapi flightlabs flutterwave flyio formbucket ' +
  'formcraft formio foursquare frameio freemius freshbooks fulcrum fullstory fxmarket geckoboard geoapify geocode geocodify geoipifi getemail ' +
  'getgeoapi getgist getresponse gitter glassnode gocardless goodday grafana graphhopper groovehq groq gtmetrix gumroad gyazo happyscribe ' +
  'harness hashicorp hellosign helpcrunch helpscout hereapi heroku hiveage holidayapi honeycomb html2pdf hubspot huggingface hybiscus ' +
  'iconfinder iexapis iexcloud imagekit imagga infracost infura insightly instabot intercom interseller intra42 intrinio ionic ip2location ' +
  'ipapi ipgeolocation ipinfo ipinfodb ipqualityscore ipstack jfrog jira jotform jumpcloud jupiterone juro karmacrm kickbox klaviyo klipfolio ' +
  'knapsackpro kontent kraken kubernetes kucoin kylas languagelayer launchdarkly leadfeeder lemlist lemonsqueezy lendflow lessannoyingcrm ' +
  'lexigram linkedin linkpreview livestorm loadmill loginradius logzio lokalise looker loyverse lunchmoney madkudu mailboxlayer mailchimp ' +
  'mailerlite mailgun mailjet mailjetsms mailmodo mailsac mandrill mapbox mapquest marketstack mattermost mavenlink maxmind mediastack ' +
  'meistertask mesibo messagebird metrilo microsoft microsoftteamswebhook mindmeister miro mixmax mockaroo monkeylearn moonclerk moosend ' +
  'moralis msteams myintervals nasdaqdatalink netlify newrelic newsapi newscatcher nftport ngrok nicereply nightfall noticeable notion nozbe ' +
  'nuget numverify nvapi nylas nytimes oanda octopus okta omnisend onesignal onfleet oopspam openai opencagedata openshift openuv openweather ' +
  'opsgenie optimizely overloop owlbot packagecloud pagarme pagerduty pandadoc pandascore paperform paralleldots parseur particleio ' +
  'partnerstack pastebin paydirtapp paymoapp paymongo paypal paystack pdflayer pdfshift peopledatalabs pepipost perplexity pipedream pipedrive ' +
  'pixabay pkcs12 plaid planetscale planyo podio pollsapi positionstack postageapp posthog postman postmark powrbot prefect privateai prodpad ' +
  'prospectcrm protocolsio proxycrawl pubnub pulumi pushbullet pypi qase qualaroo qubole rabbitmq rapidapi rawg reachmail reallysimplesystems ' +
  'rebrandly recaptcha rentman replicate replyio requestfinance restpack ritekit rocketreach rockset route4me rubygems salesblink salescookie ' +
  'salesflare salesforce scaleway scalingo scrapeowl scraperapi scraperbox scrapestack scrapfly scrapingant scrapingbee screenshotapi ' +
  'screenshotlayer scrutinizerci securitytrails selectpdf sendbird sendgrid sendinblue sentry serphouse serpstack settlemint sherpadesk shipday ' +
  'shippo shodan shopify shotstack shutterstock signaturit signupgenius sigopt simfin simplesat simplynoted simvoly skrappio slack smartsheets ' +
  'snipcart snowflake snyk sonar sonarcloud sonarqube sourcegraph sparkpost speechtextai splunk spoonacular sportsmonk spotify square ' +
  'squarespace squareup sslmate stackhawk statuscake statuspage statuspal stitchdata stockdata storecove stormboard stormglass storyblok ' +
  'storychief stripe stripo sumologic supabase supernotes surveybot surveysparrow survicate swiftype tailscale tallyfy tatumio taxjar ' +
  'teamworkcrm teamworkdesk teamworkspaces technicalanalysisapi tefter telegram teletype telnyx theoddsapi thingsboard ticketmaster ' +
  'tickettailor tiingo timecamp timezoneapi tineswebhook tmetric todoist toggltrack tomtom tradier transferwise travelpayouts travisci trello ' +
  'truenas twelvedata twilio twitch twitter tyntec typeform ubidots uclassify unplugg unsplash upcdatabase uplead uptimerobot upwave urlscan ' +
  'userflow userstack vagrantcloud vatlayer vbout vercel verimail veriphone versioneye viewneo virustotal visualcrossing voiceflow voicegain ' +
  'voodoosms vpnapi vultr vyte walkscore wandb weatherbit weatherstack web3storage webflow webscraper webscraping whoxy wireguard wistia ' +
  'worksnaps workstack worldcoinindex worldweather wrike yandex yelp youneedabudget yousign youtube zapierwebhook zendesk zenkit zenrows ' +
  'zenscrape zeplin zerobounce zerotier zipcodeapi zipcodebase zohocrm zonkafeedback'
).split(' ');
